import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LESSON_TAGS, LESSON_TYPES } from '../../domain/resources/directory';
import { ResourceScreen } from '../engine/resource-screen';

const TYPES = ['lesson-type', 'lesson-tag'] as const;
type LessonSetting = (typeof TYPES)[number];

/**
 * /lessons/settings: the tabs Lesson Types and Lesson Tags, chosen by `type=lesson-type|lesson-tag`;
 * each opens its drawer from `lesson_type` / `lesson_tag`.
 */
export default function LessonSettingsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('type');
  const type: LessonSetting = (TYPES as readonly string[]).includes(raw ?? '') ? (raw as LessonSetting) : 'lesson-type';
  const tabs = (
    <Tabs
      activeKey={type}
      // a tab's list keeps its own sort, filters and page: start the other one clean
      onChange={(key) => setParams(new URLSearchParams({ type: key }))}
      items={[
        { key: 'lesson-type', label: t('lesson-types.title') },
        { key: 'lesson-tag', label: t('lesson-tags.title') },
      ]}
    />
  );
  return type === 'lesson-tag' ? (
    <ResourceScreen key="tags" def={LESSON_TAGS} header={tabs} />
  ) : (
    <ResourceScreen key="types" def={LESSON_TYPES} header={tabs} />
  );
}
