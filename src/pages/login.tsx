import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Input, notification as antdNotification } from 'antd';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PublicCard, PublicField } from '../components/public-card';
import { authProvider, safeRedirect } from '../providers/authProvider';
import { session } from '../providers/session';
import { NOTIFICATION_CONFIG } from '../providers/toasts';

type Field = 'username' | 'password';

// Keys, not texts, so a shown message follows a language switch.
const REQUIRED: Record<Field, string> = { username: 'login.usernameRequired', password: 'login.passwordRequired' };

/**
 * /login. Deliberately light (no antd Form, Modal or Refine): it is the first page most
 * visitors load, and caps it at 250 KB of gzipped JavaScript.
 */
/** `preloadHome` fetches the signed-in app while the user types (root.tsx hands it down). */
export default function LoginPage({ preloadHome }: { preloadHome?: () => void }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Coming from an accepted invitation: her e-mail address (her username) is filled in.
  const arrived = (useLocation().state ?? {}) as { username?: unknown };
  const welcome = typeof arrived.username === 'string';
  const redirectTo = safeRedirect(params.get('redirect'));
  const navigate = useNavigate();
  const [notification, notificationHolder] = antdNotification.useNotification(NOTIFICATION_CONFIG);
  const [values, setValues] = useState<Record<Field, string>>({ username: welcome ? String(arrived.username) : '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    document.title = `${t('login.title')} | Frontis`;
  }, [t]);
  useEffect(() => preloadHome?.(), [preloadHome]);

  const check = (field: Field, value: string) => (value.trim() === '' ? REQUIRED[field] : undefined);

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field] !== undefined) setErrors((e) => ({ ...e, [field]: check(field, value) }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { username: check('username', values.username), password: check('password', values.password) };
    setErrors(found);
    if (found.username || found.password) return;
    setPending(true);
    const result = await authProvider.login({ username: values.username.trim(), password: values.password, redirectTo });
    setPending(false);
    if (result.success) {
      navigate(result.redirectTo ?? '/', { replace: true });
    } else if (result.error) {
      notification.error({ key: 'login-error', message: result.error.name, description: result.error.message });
    }
  };

  // Already signed in: go on (the shell confirms the session with the server).
  if (session.get()) return <Navigate to={redirectTo} replace />;

  const field = (name: Field, label: string, input: ReactNode) => (
    <PublicField id={`login-${name}`} label={label} error={errors[name]}>
      {input}
    </PublicField>
  );

  return (
    <PublicCard
      title={t('login.title')}
      subtitle={welcome ? <span role="status">{t('invitation.done')}</span> : t('login.subtitle')}
      before={notificationHolder}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        {field(
          'username',
          t('login.username'),
          <Input
            id="login-username"
            name="username"
            size="large"
            autoFocus
            autoComplete="username"
            prefix={<UserOutlined />}
            value={values.username}
            status={errors.username ? 'error' : undefined}
            aria-invalid={Boolean(errors.username)}
            aria-describedby={errors.username ? 'login-username-error' : undefined}
            onChange={(e) => change('username', e.target.value)}
          />,
        )}
        {field(
          'password',
          t('login.password'),
          <Input.Password
            id="login-password"
            name="password"
            size="large"
            autoComplete="current-password"
            prefix={<LockOutlined />}
            value={values.password}
            status={errors.password ? 'error' : undefined}
            aria-invalid={Boolean(errors.password)}
            aria-describedby={errors.password ? 'login-password-error' : undefined}
            onChange={(e) => change('password', e.target.value)}
          />,
        )}
        <Button type="primary" htmlType="submit" block size="large" loading={pending}>
          {t('login.submit')}
        </Button>
      </form>
    </PublicCard>
  );
}
