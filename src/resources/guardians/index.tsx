import { GUARDIANS } from '../../../domain/resources/people';
import { ResourceScreen, rowTitle } from '../../engine/resource-screen';
import { FamilyStatementButton } from './family-statement';
import { PersonalDataActions } from './personal-data';
import { PortalAccessCard } from './portal-access';

const name = rowTitle(GUARDIANS);

/**
 * /guardians/: `?mode=create|update|view&guardian=<id>`, the families' people (siblings share
 * one); the office opens her family statement, sees her portal access (and may send her
 * invitation again, or copy a fresh link to hand her); a
 * manager also sees the guardian's personal data and may erase it.
 */
export default function GuardiansPage() {
  return (
    <ResourceScreen
      def={GUARDIANS}
      view={{
        extra: (row) => (
          <>
            <FamilyStatementButton id={Number(row.id)} />
            <PortalAccessCard id={Number(row.id)} />
            <PersonalDataActions resource="guardians" id={Number(row.id)} name={name(row)} />
          </>
        ),
      }}
    />
  );
}
