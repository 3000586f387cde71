import { Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { GUARDIANS } from '../../../domain/resources/people';
import type { RefLabel } from '../../engine/fields/format';
import { RelatedRows } from '../../engine/view/related-rows';
import { useT } from '../../providers/i18nProvider';

interface GuardianRow {
  id: number;
  first_name: string;
  last_name: string;
  relation: string;
  phone: string | null;
  email: string | null;
  students?: RefLabel[];
}

/** A student's guardians, each with the other students she is a guardian of (the siblings). */
export default function StudentGuardiansTab({ id }: { id: number }) {
  const { t } = useT();
  return (
    <RelatedRows<GuardianRow>
      resource={GUARDIANS.name}
      filters={[{ field: 'student_ids', operator: 'eq', value: id }]}
      sort={GUARDIANS.defaultSort.map((s) => ({ field: s.field, order: s.order }))}
      columns={[
        {
          key: 'name',
          title: t('guardians.view'),
          render: (_, g) => <Link to={`/guardians/?mode=view&guardian=${g.id}`}>{`${g.first_name} ${g.last_name}`}</Link>,
        },
        { key: 'relation', title: t('guardians.fields.relation'), render: (_, g) => t(`enums.${g.relation}`) },
        {
          key: 'phone',
          title: t('guardians.fields.phone'),
          render: (_, g) => (g.phone ? <a href={`tel:${g.phone.replace(/[^\d+]/g, '')}`}>{g.phone}</a> : null),
        },
        { key: 'email', title: t('guardians.fields.email'), render: (_, g) => g.email },
        {
          key: 'siblings',
          title: t('guardians.siblings'),
          render: (_, g) => {
            const others = (g.students ?? []).filter((s) => s.id !== id);
            if (!others.length) return <Typography.Text type="secondary">{t('guardians.noSiblings')}</Typography.Text>;
            return (
              <Space size={4} wrap>
                {others.map((s) => (
                  <Tag key={s.id}>
                    <Link to={`/students/?mode=view&student=${s.id}`}>{s.name}</Link>
                  </Tag>
                ))}
              </Space>
            );
          },
        },
      ]}
    />
  );
}
