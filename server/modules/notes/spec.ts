/**
 * Notes about a student, teacher or class. The author is whoever wrote it (a ROOT is no
 * tenant user: author_id null, labelled "Root"). A TEACHER sees their own notes, those
 * about themselves and those on the classes they teach, and changes only their own.
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { DomainError, isOwnOnly, NOTES } from '../../../domain/index';
import { notes, teachers } from '../../db/schema/index';
import type { Ctx, ResourceSpec } from '../../engine/spec';
import { inOwnClasses } from '../teachers/scope';

const ownOnly = (ctx: Ctx) => !!ctx.actor && isOwnOnly(ctx.actor.role, 'notes');

export const notesSpec: ResourceSpec = {
  def: NOTES,
  table: notes,
  label: notes.title.getSQL(),
  hidden: { author_is_root: notes.authorIsRoot },
  scope(ctx) {
    if (!ownOnly(ctx)) return undefined;
    const me = ctx.actor!.id;
    return or(
      eq(notes.authorId, me),
      sql`${notes.teacherId} in (select ${teachers.id} from ${teachers} where ${and(
        eq(teachers.tenantId, ctx.tenantId),
        eq(teachers.userId, me),
        isNull(teachers.deletedAt),
      )})`,
      inOwnClasses(ctx, notes.classId),
    );
  },
  canWrite(ctx, before) {
    if (ownOnly(ctx) && before.author_id !== ctx.actor!.id) {
      throw new DomainError('forbidden', 'Only the author may change this note.', undefined, { details: { reason: 'author-only' } });
    }
  },
  async beforeWrite({ ctx, before }) {
    if (before) return;
    const root = ctx.actor?.kind === 'root';
    return { author_id: ctx.actor && !root ? ctx.actor.id : null, author_is_root: root };
  },
  present(row) {
    if (row.author_id === null && row.__author_is_root === true) row.author = { id: null, name: 'Root' };
  },
};
