import { Card, Col, Row, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { PortalHomeAnswer } from '../../../domain/answers/portal';
import { LessonList } from './lesson-list';
import { childName, LoadError, usePortal } from './portal-data';
import { ScreenTitle, SectionTitle } from '../../components/headings';

type Home = z.infer<typeof PortalHomeAnswer>['data'];

/** /portal/: for each of her children, the next lessons and the latest homework. */
export default function PortalHome() {
  const { t } = useTranslation();
  const { data, loading, error } = usePortal<Home>('/api/portal/home');
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <ScreenTitle style={{ margin: 0 }}>{t('portal.home.title')}</ScreenTitle>
      {loading && <Spin />}
      {error && <LoadError error={error} />}
      {data && data.length === 0 && <Typography.Text>{t('portal.noChildren')}</Typography.Text>}
      {data?.map(({ child, next_lessons, homework }) => (
        <Card
          key={child.id}
          data-child-id={child.id}
          title={childName(child)}
          extra={<Link to={`/portal/timetable/?child=${child.id}`}>{t('portal.timetable.title')}</Link>}
          styles={{ body: { paddingTop: 8 } }}
        >
          {child.class_names.length > 0 && <Typography.Paragraph type="secondary">{child.class_names.join(', ')}</Typography.Paragraph>}
          <Row gutter={[24, 8]}>
            <Col xs={24} md={12}>
              <SectionTitle>{t('portal.home.next')}</SectionTitle>
              <LessonList lessons={next_lessons} empty={t('portal.home.noLessons')} />
            </Col>
            <Col xs={24} md={12}>
              <SectionTitle>{t('portal.home.homework')}</SectionTitle>
              <LessonList lessons={homework} homework empty={t('portal.home.noHomework')} />
            </Col>
          </Row>
        </Card>
      ))}
    </Space>
  );
}
