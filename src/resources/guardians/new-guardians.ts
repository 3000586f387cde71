import { useCreate } from '@refinedev/core';
import { App } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { GUARDIANS } from '../../../domain/resources/people';
import { errorText } from '../../providers/errors';
import type { PendingGuardian } from './guardian-picker';

/**
 * The guardians typed in a student's form, saved when the student is: `remember` keeps each one
 * as typed; `save` (the form's body on its way out) creates those the body still lists, in
 * place of their stand-in ids, and answers the body, or null when one could not be saved (the
 * form stays open with everything typed, and says why). A guardian saved once is not saved
 * again when the student's save is tried again.
 */
export function useNewGuardians() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { mutateAsync: create } = useCreate();
  const typed = useRef(new Map<number, PendingGuardian>());
  const saved = useRef(new Map<number, number>());
  const busy = useRef(false);

  const remember = (guardian: PendingGuardian) => typed.current.set(guardian.id, guardian);

  const save = async (body: Record<string, unknown>): Promise<Record<string, unknown> | null> => {
    const ids = Array.isArray(body.guardian_ids) ? (body.guardian_ids as number[]) : [];
    if (!ids.some((id) => id < 0)) return body;
    if (busy.current) return null;
    busy.current = true;
    try {
      const out: number[] = [];
      for (const id of ids) {
        const guardian = typed.current.get(id);
        if (id >= 0 || !guardian) {
          if (id >= 0) out.push(id);
          continue;
        }
        let real = saved.current.get(id);
        if (real === undefined) {
          try {
            const answer = await create({ resource: GUARDIANS.name, values: guardian.body, successNotification: false, errorNotification: false });
            real = Number((answer.data as { id: number }).id);
            saved.current.set(id, real);
          } catch (error) {
            message.error(t('guardians.inlineFailed', { name: guardian.name, reason: errorText(error) }));
            return null;
          }
        }
        out.push(real);
      }
      return { ...body, guardian_ids: out };
    } finally {
      busy.current = false;
    }
  };

  return { remember, save };
}
