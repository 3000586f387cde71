import { useGetIdentity } from '@refinedev/core';
import { Tag } from 'antd';
import type { LessonStatus } from '../../../domain/enums';
import { canBeReplaced, canChangeStatus, KIND } from '../../../domain/lessons';
import type { Role } from '../../../domain/enums';
import { isOwnOnly } from '../../../domain/permissions';
import type { SessionUser } from '../../providers/session';
import type { Lesson } from './types';
import type { Translate } from '../../providers/i18nProvider';

/** The signed-in user's role, from Refine's identity (TEACHER until it is known: the least). */
export function useRole(): Role {
  const { data } = useGetIdentity<SessionUser>();
  return data?.role ?? 'TEACHER';
}

export const STATUS_COLOR: Record<LessonStatus, string> = {
  NORMAL: 'green',
  TO_BE_REPLACED: 'orange',
  REPLACED: 'default',
  CANCELED: 'red',
};

/** The status as a coloured tag, and "Replacement" beside it for a kind 2 lesson. */
export function LessonStatusTags({ lesson, t }: { lesson: Pick<Lesson, 'status' | 'kind'>; t: Translate }) {
  return (
    <>
      <Tag color={STATUS_COLOR[lesson.status]} data-status={lesson.status}>
        {t(`enums.${lesson.status}`)}
      </Tag>
      {lesson.kind === KIND.REPLACEMENT && <Tag color="purple">{t('enums.REPLACEMENT')}</Tag>}
    </>
  );
}

interface LessonRights {
  /** Staff may change everything; a TEACHER only homework and notes of own lessons. */
  staff: boolean;
  edit: boolean;
  delete: boolean;
  markToBeReplaced: boolean;
  createReplacement: boolean;
  cancel: boolean;
  restore: boolean;
  editHomework: boolean;
}

/**
 * Whether `role` keeps every lesson (the office) rather than only its own (the matrix narrows
 * TEACHER to her lessons, of which she edits only the homework and notes).
 */
export const keepsAllLessons = (role: Role): boolean => !isOwnOnly(role, 'lessons');

/** Which actions the view offers: the role (domain/permissions) and the status moves of docs/rules.md, Status and replacement. */
export function lessonRights(lesson: Pick<Lesson, 'status' | 'replaced_by'>, role: Role): LessonRights {
  const staff = keepsAllLessons(role);
  return {
    staff,
    edit: staff && lesson.status !== 'REPLACED',
    // an original with a replacement is kept (409 in-use): delete the replacement first
    delete: staff && !lesson.replaced_by,
    markToBeReplaced: staff && lesson.status !== 'TO_BE_REPLACED' && canChangeStatus(lesson.status, 'TO_BE_REPLACED'),
    createReplacement: staff && canBeReplaced(lesson.status),
    cancel: staff && lesson.status !== 'CANCELED' && canChangeStatus(lesson.status, 'CANCELED'),
    restore: staff && lesson.status !== 'NORMAL' && canChangeStatus(lesson.status, 'NORMAL'),
    editHomework: true,
  };
}

/** "Φυσική — Β1" : subject and class, what a lesson is called at a glance. */
export function lessonTitle(lesson: Pick<Lesson, 'subject' | 'class'>, t: Translate): string {
  const subject = lesson.subject?.name ?? t('lessons.noSubject');
  return lesson.class?.name ? `${subject} — ${lesson.class.name}` : subject;
}
