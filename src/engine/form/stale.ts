import { Button, Space } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';
import { createElement } from 'react';
import { i18n } from '../../providers/i18nProvider';

/** A 409 stale answer: someone else saved first. Offer to load their version. */
export function offerReload(modal: HookAPI, error: unknown, reload: () => void): boolean {
  if ((error as { code?: string } | undefined)?.code !== 'stale') return false;
  modal.confirm({
    title: i18n.t('stale.title'),
    content: i18n.t('stale.description'),
    okText: i18n.t('buttons.reload'),
    cancelText: i18n.t('buttons.cancel'),
    onOk: reload,
  });
  return true;
}

/** Fields that are the record's bookkeeping, not something a user typed. */
const BOOKKEEPING = new Set(['id', 'version', 'created_at', 'updated_at', 'deleted', 'deleted_at']);

export function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(shown).join(', ');
  // a set of named values (custom fields) as "name: value" pairs, never as JSON
  if (typeof value === 'object')
    return (
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([name, v]) => `${name}: ${shown(v)}`)
        .join('; ') || '—'
    );
  if (typeof value === 'boolean') return i18n.t(value ? 'typing.stale.yes' : 'typing.stale.no');
  return String(value);
}

const same = (a: unknown, b: unknown) => shown(a) === shown(b);

/** The fields where what the user typed differs from the other person's saved version. */
export function changedFields(mine: Record<string, unknown>, theirs: Record<string, unknown>): string[] {
  return Object.keys(mine).filter((field) => !BOOKKEEPING.has(field) && !same(mine[field], theirs[field]));
}

/** One line of the comparison: a field's name, what the user typed and what the other person saved. */
interface ComparedField {
  key: string;
  label: string;
  mine: string;
  theirs: string;
}

/** The lines of the comparison: the fields that differ, each named and shown as text. */
export type CompareFields = (mine: Record<string, unknown>, theirs: Record<string, unknown>) => ComparedField[];

/** The comparison of fields named by `labelOf`, their values as plain text. */
const plainComparison =
  (labelOf: (field: string) => string): CompareFields =>
  (mine, theirs) =>
    changedFields(mine, theirs).map((field) => ({ key: field, label: labelOf(field), mine: shown(mine[field]), theirs: shown(theirs[field]) }));

/**
 * A 409 stale answer on a form: the user's values stay in the form, and the dialog offers to
 * save them over the other person's version, to load that version instead, or to compare the
 * two side by side (only the fields that differ).
 */
export function offerStaleChoice<T extends Record<string, unknown>>(
  modal: HookAPI,
  opts: {
    mine: Record<string, unknown>;
    theirs(): Promise<T>;
    labelOf(field: string): string;
    /** The comparison's lines, when the fields need more than a label (custom values, formats). */
    compare?: CompareFields;
    keepMine(theirs: T): void;
    loadTheirs(theirs: T): void;
  },
): void {
  const theirs = opts.theirs();
  const comparison = (fresh: Record<string, unknown>) => {
    const lines = (opts.compare ?? plainComparison(opts.labelOf))(opts.mine, fresh);
    return createElement(
      'table',
      { className: 'frontis-stale-compare', style: { width: '100%', marginTop: 12, borderCollapse: 'collapse' } },
      createElement(
        'thead',
        null,
        createElement(
          'tr',
          null,
          createElement('th', { scope: 'col', style: { textAlign: 'left' } }, i18n.t('typing.stale.field')),
          createElement('th', { scope: 'col', style: { textAlign: 'left' } }, i18n.t('typing.stale.mine')),
          createElement('th', { scope: 'col', style: { textAlign: 'left' } }, i18n.t('typing.stale.theirs')),
        ),
      ),
      createElement(
        'tbody',
        null,
        ...lines.map((line) =>
          createElement(
            'tr',
            { key: line.key },
            createElement('th', { scope: 'row', style: { textAlign: 'left', fontWeight: 'normal' } }, line.label),
            createElement('td', null, line.mine),
            createElement('td', null, line.theirs),
          ),
        ),
      ),
    );
  };
  const instance = modal.confirm({
    title: i18n.t('stale.title'),
    content: i18n.t('typing.stale.description'),
    width: 560,
    closable: true,
    footer: () =>
      createElement(
        Space,
        { wrap: true, style: { marginTop: 12 } },
        createElement(
          Button,
          {
            onClick: () =>
              void theirs.then((fresh) => instance.update({ content: createElement('div', null, i18n.t('typing.stale.description'), comparison(fresh)) })),
          },
          i18n.t('typing.stale.compare'),
        ),
        createElement(
          Button,
          {
            onClick: () =>
              void theirs.then((fresh) => {
                instance.destroy();
                opts.loadTheirs(fresh);
              }),
          },
          i18n.t('typing.stale.loadTheirs'),
        ),
        createElement(
          Button,
          {
            type: 'primary',
            onClick: () =>
              void theirs.then((fresh) => {
                instance.destroy();
                opts.keepMine(fresh);
              }),
          },
          i18n.t('typing.stale.keepMine'),
        ),
      ),
  });
}
