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

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(shown).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'boolean') return i18n.t(value ? 'typing.stale.yes' : 'typing.stale.no');
  return String(value);
}

const same = (a: unknown, b: unknown) => shown(a) === shown(b);

/** The fields where what the user typed differs from the other person's saved version. */
export function changedFields(mine: Record<string, unknown>, theirs: Record<string, unknown>): string[] {
  return Object.keys(mine).filter((field) => !BOOKKEEPING.has(field) && !same(mine[field], theirs[field]));
}

/**
 * A 409 stale answer on a form: the user's values stay in the form, and the dialog offers to
 * save them over the other person's version, to load that version instead, or to compare the
 * two side by side (only the fields that differ).
 */
export function offerStaleChoice(
  modal: HookAPI,
  opts: {
    mine: Record<string, unknown>;
    theirs(): Promise<Record<string, unknown>>;
    labelOf(field: string): string;
    keepMine(theirs: Record<string, unknown>): void;
    loadTheirs(theirs: Record<string, unknown>): void;
  },
): void {
  const theirs = opts.theirs();
  const comparison = (fresh: Record<string, unknown>) => {
    const fields = changedFields(opts.mine, fresh);
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
        ...fields.map((field) =>
          createElement(
            'tr',
            { key: field },
            createElement('th', { scope: 'row', style: { textAlign: 'left', fontWeight: 'normal' } }, opts.labelOf(field)),
            createElement('td', null, shown(opts.mine[field])),
            createElement('td', null, shown(fresh[field])),
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
