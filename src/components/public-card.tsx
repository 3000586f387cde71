import { Segmented, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../domain/enums';

/**
 * The frame of the pages seen before sign-in (the sign-in page, a guardian's invitation): the
 * name, the language switch, a title and what the page asks. Light on purpose: no antd Form,
 * Modal or Refine, so these first pages stay small.
 */
export function PublicCard({ title, subtitle, children, before }: { title: string; subtitle?: ReactNode; children: ReactNode; before?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16, background: token.colorBgLayout, color: token.colorText }}>
      {before}
      <section
        style={{
          // the padding inside the width: a phone's screen holds the whole card
          boxSizing: 'border-box',
          width: 'min(400px, 100%)',
          padding: 'clamp(20px, 6vw, 32px)',
          overflowWrap: 'anywhere',
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
        }}
      >
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 24 }}>
          <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <strong style={{ fontSize: 18 }}>Frontis</strong>
          </span>
          <Segmented
            size="small"
            aria-label={t('header.language')}
            value={i18n.language === 'en' ? 'en' : 'el'}
            options={LANGUAGES.map((l) => ({ value: l, label: l.toUpperCase() }))}
            onChange={(value) => void i18n.changeLanguage(String(value))}
          />
        </div>
        <h1 style={{ margin: '0 0 8px', fontSize: token.fontSizeHeading3, fontWeight: 600 }}>{title}</h1>
        {subtitle && <div style={{ margin: '0 0 24px', color: token.colorTextSecondary }}>{subtitle}</div>}
        {children}
      </section>
    </main>
  );
}

/** A labelled field of these pages, its error (a translation key) announced under it. */
export function PublicField({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: 20 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" style={{ color: token.colorError, marginTop: 4 }}>
          {t(error)}
        </div>
      )}
    </div>
  );
}
