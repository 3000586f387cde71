import { Checkbox, Modal, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SeriesScope } from '../../../domain/lessons';

export interface ScopeChoice {
  scope: SeriesScope;
  includeChanged: boolean;
}

/**
 * Editing a lesson of a series: "this lesson", "this and following" or "all" (docs/rules.md, Recurring lessons), and
 * whether lessons changed on their own follow too. A new date applies to this lesson only.
 */
export function ScopeModal({ open, onlyThis, onOk, onCancel }: { open: boolean; onlyThis?: boolean; onOk(choice: ScopeChoice): void; onCancel(): void }) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<SeriesScope>('this');
  const [includeChanged, setIncludeChanged] = useState(false);
  return (
    <Modal
      open={open}
      title={t('lessons.scope.title')}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
      onOk={() => onOk({ scope: onlyThis ? 'this' : scope, includeChanged })}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Space direction="vertical">
        <Radio.Group value={onlyThis ? 'this' : scope} onChange={(e) => setScope(e.target.value as SeriesScope)}>
          <Space direction="vertical">
            <Radio value="this">{t('lessons.scope.this')}</Radio>
            <Radio value="following" disabled={onlyThis}>
              {t('lessons.scope.following')}
            </Radio>
            <Radio value="all" disabled={onlyThis}>
              {t('lessons.scope.all')}
            </Radio>
          </Space>
        </Radio.Group>
        {!onlyThis && scope !== 'this' && (
          <Checkbox checked={includeChanged} onChange={(e) => setIncludeChanged(e.target.checked)}>
            {t('lessons.scope.includeChanged')}
          </Checkbox>
        )}
        {onlyThis && <Typography.Text type="secondary">{t('lessons.scope.dateOnlyThis')}</Typography.Text>}
      </Space>
    </Modal>
  );
}
