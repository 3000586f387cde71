import { LockOutlined } from '@ant-design/icons';
import { Button, Input, Spin, theme } from 'antd';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PublicCard, PublicField } from '../components/public-card';
import { formatInstant } from '../engine/fields/format';
import { http, toApiError } from '../providers/http';

interface Invitation {
  email: string;
  first_name: string;
  expires_at: string;
}

type Field = 'password' | 'confirm';

/** The password rules, the same as every sign-in's. */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

/** Why a link cannot be used: gone past its 7 days, used already, or not a link of ours (or revoked). */
const LINK_ERRORS = new Set(['invitation-expired', 'invitation-used', 'invitation-invalid']);
const linkError = (code: string) => (LINK_ERRORS.has(code) ? code : 'unknown');

function check(field: Field, values: Record<Field, string>): string | undefined {
  const value = values[field];
  if (value === '') return field === 'password' ? 'login.passwordRequired' : 'invitation.confirmRequired';
  if (field === 'password' && value.length < PASSWORD_MIN) return 'invitation.tooShort';
  if (field === 'password' && value.length > PASSWORD_MAX) return 'invitation.tooLong';
  if (field === 'confirm' && value !== values.password) return 'mydata.passwordsDiffer';
  return undefined;
}

/**
 * /invitation?token=…: a guardian invited to the portal chooses her password. The link is
 * checked first (her e-mail address and until when it holds are shown); an expired, used or
 * unknown link says so and what to do. Once set, she goes to the sign-in page with her e-mail
 * address filled in. Light like the sign-in page: it is the first page she ever loads.
 */
export default function InvitationPage() {
  const { t } = useTranslation();
  const { token: colors } = theme.useToken();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [problem, setProblem] = useState<string | null>(token ? null : 'invitation-invalid');
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    document.title = `${t('invitation.title')} | Frontis`;
  }, [t]);

  useEffect(() => {
    if (!token) return;
    let live = true;
    http.get<{ data: Invitation }>('/api/invitation', { params: { token } }).then(
      ({ data }) => live && setInvitation(data.data),
      (error: unknown) => live && setProblem(linkError(toApiError(error).code)),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field] !== undefined) setErrors((e) => ({ ...e, [field]: check(field, next) }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { password: check('password', values), confirm: check('confirm', values) };
    setErrors(found);
    setFailure(null);
    if (found.password || found.confirm || !invitation) return;
    setPending(true);
    try {
      await http.post('/api/invitation', { token, password: values.password });
      navigate('/login', { replace: true, state: { username: invitation.email } });
    } catch (error) {
      const apiError = toApiError(error);
      if (LINK_ERRORS.has(apiError.code)) setProblem(apiError.code);
      else if (apiError.fields.password) setErrors({ password: `fields.${apiError.fields.password}` });
      else setFailure(t(`errors.${apiError.code}`, { defaultValue: t('errors.unknown') }));
    } finally {
      setPending(false);
    }
  };

  if (problem) {
    return (
      <PublicCard title={t(`invitation.problems.${problem}`)} subtitle={<span role="alert">{t(`errors.${problem}`)}</span>}>
        <Link to="/login">{t('invitation.toSignIn')}</Link>
      </PublicCard>
    );
  }
  if (!invitation) {
    return (
      <PublicCard title={t('invitation.title')}>
        <Spin />
      </PublicCard>
    );
  }

  const described = (field: Field) => [`invitation-${field}-rules`, errors[field] ? `invitation-${field}-error` : ''].filter(Boolean).join(' ');
  return (
    <PublicCard
      title={t('invitation.title')}
      subtitle={
        <>
          <p style={{ margin: '0 0 8px' }}>{t('invitation.greeting', { name: invitation.first_name })}</p>
          <p style={{ margin: 0 }}>
            {t('invitation.username')} <strong data-testid="invitation-email">{invitation.email}</strong>
          </p>
          <p style={{ margin: '8px 0 0' }}>{t('invitation.expires', { when: formatInstant(invitation.expires_at) })}</p>
        </>
      }
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <input type="text" name="username" autoComplete="username" value={invitation.email} readOnly hidden />
        <PublicField id="invitation-password" label={t('mydata.newPassword')} error={errors.password}>
          <Input.Password
            id="invitation-password"
            name="password"
            size="large"
            autoFocus
            autoComplete="new-password"
            prefix={<LockOutlined />}
            value={values.password}
            status={errors.password ? 'error' : undefined}
            aria-invalid={Boolean(errors.password)}
            aria-describedby={described('password')}
            onChange={(e) => change('password', e.target.value)}
          />
          <div id="invitation-password-rules" style={{ color: colors.colorTextSecondary, marginTop: 4 }}>
            {t('invitation.rules', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
          </div>
        </PublicField>
        <PublicField id="invitation-confirm" label={t('mydata.confirmPassword')} error={errors.confirm}>
          <Input.Password
            id="invitation-confirm"
            name="confirm"
            size="large"
            autoComplete="new-password"
            prefix={<LockOutlined />}
            value={values.confirm}
            status={errors.confirm ? 'error' : undefined}
            aria-invalid={Boolean(errors.confirm)}
            aria-describedby={errors.confirm ? 'invitation-confirm-error' : undefined}
            onChange={(e) => change('confirm', e.target.value)}
          />
        </PublicField>
        {failure && (
          <div role="alert" style={{ color: colors.colorError, marginBottom: 16 }}>
            {failure}
          </div>
        )}
        <Button type="primary" htmlType="submit" block size="large" loading={pending}>
          {t('invitation.submit')}
        </Button>
      </form>
    </PublicCard>
  );
}
