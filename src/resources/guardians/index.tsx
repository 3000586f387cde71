import { Alert, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { GUARDIANS } from '../../../domain/resources/people';
import { ResourceScreen, rowTitle } from '../../engine/resource-screen';
import { FamilyStatementButton } from './family-statement';
import { PersonalDataActions } from './personal-data';
import { PortalAccessCard } from './portal-access';

const name = rowTitle(GUARDIANS);

/**
 * /guardians/: `?mode=create|update|view&guardian=<id>`, the families' people (siblings share
 * one); the office opens her family statement, sees her portal access (and may send her
 * invitation again, or copy a fresh link to hand her) and her messages, and which guardians no
 * notice can reach (her channel has no address); a manager also sees the guardian's personal
 * data and may erase it.
 */
export default function GuardiansPage() {
  const { t } = useTranslation();
  const unreachable = (row: Record<string, unknown>) =>
    row.unreachable === true ? (
      <Tag color="red" data-testid="guardian-unreachable">
        {t('guardians.fields.unreachable')}
      </Tag>
    ) : null;
  return (
    <ResourceScreen
      def={GUARDIANS}
      columns={{ unreachable: { render: unreachable } }}
      view={{
        extra: (row) => (
          <>
            {row.unreachable === true && (
              <Alert
                type="warning"
                showIcon
                data-testid="guardian-unreachable-alert"
                message={t('guardians.fields.unreachable')}
                description={t('guardians.unreachableHint')}
              />
            )}
            <FamilyStatementButton id={Number(row.id)} />
            <PortalAccessCard id={Number(row.id)} />
            <PersonalDataActions resource="guardians" id={Number(row.id)} name={name(row)} />
          </>
        ),
      }}
    />
  );
}
