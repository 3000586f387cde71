import { ImportOutlined } from '@ant-design/icons';
import { CreateButton } from '@refinedev/antd';
import { Typography } from 'antd';
import { useMemo, useState } from 'react';
import { ResourceScreen } from './resource-screen';
import type { RuntimeDeclaration } from './runtime/runtime';
import { CsvImport } from './import/csv-import';
import { importTargets } from './import/csv-rows';
import { useT } from '../providers/i18nProvider';

/**
 * The screen of a resource declared at run time (a custom entity's records): the generic
 * screen, with its description above the list and import from CSV for whoever may create.
 */
export function RuntimeScreen({ def }: { def: RuntimeDeclaration }) {
  const { t, i18n } = useT();
  const [importing, setImporting] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the labels follow the language
  const targets = useMemo(() => importTargets(t, def), [def, t, i18n.language]);
  const description = t(`${def.name}.description`, { defaultValue: '' });
  return (
    <>
      <ResourceScreen
        def={def}
        header={description ? <Typography.Paragraph type="secondary">{description}</Typography.Paragraph> : undefined}
        toolbar={
          <CreateButton resource={def.name} icon={<ImportOutlined />} onClick={() => setImporting(true)}>
            {t('import.open')}
          </CreateButton>
        }
      />
      <CsvImport
        resource={def.name}
        targets={targets}
        open={importing}
        onClose={() => setImporting(false)}
        title={t('customEntities.records.importTitle', { name: t(`${def.name}.title`) })}
        hint={t('customEntities.records.importHint')}
        recordsOf={t(`${def.name}.title`)}
      />
    </>
  );
}
