import { ConfigProvider, theme, type ThemeConfig } from 'antd';
import el_GR from 'antd/es/locale/el_GR';
import en_US from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/el';
import 'dayjs/locale/en';
import { createContext, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type ThemeMode = 'light' | 'dark';
const THEME_KEY = 'frontis.theme';

interface Preferences {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
}

const PreferencesContext = createContext<Preferences>({ mode: 'light', setMode: () => undefined });
export const usePreferences = () => useContext(PreferencesContext);

/** The browser's answer to a media query (none outside a browser). */
const media = (query: string) => (typeof matchMedia === 'function' ? matchMedia(query) : undefined);

function storedMode(): ThemeMode {
  try {
    const value = localStorage.getItem(THEME_KEY);
    if (value === 'dark' || value === 'light') return value;
  } catch {
    // no storage
  }
  return media('(prefers-color-scheme: dark)')?.matches ? 'dark' : 'light';
}

// Text and links readable on every background of the theme, at least 4.5:1 (WCAG AA): antd's
// own secondary text (45 % black, 3.4:1), placeholder text of empty tables, link blue, danger
// red and the text of coloured tags (the `<colour>7` tokens) fall short.
const LIGHT: ThemeConfig = {
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: '#1a5fd0',
    colorLink: '#1a5fd0',
    colorError: '#cf1322',
    // a focused field's ring (antd draws it 2 px wide): the primary blue itself, at least 3:1 on
    // the page, where antd's default is a 10 % tint nobody sees
    controlOutline: '#1a5fd0',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    green7: '#237804',
    orange7: '#ad4e00',
    volcano7: '#ad2102',
    gold7: '#874d00',
    yellow7: '#7c5f00',
    cyan7: '#006d75',
    lime7: '#3f6600',
  },
  components: { Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.62)' } },
};
// Dark: the primary blue stays for filled buttons (white text on it); selected menu items,
// tabs and links use a lighter blue that reads on the dark backgrounds.
const DARK_ACCENT = '#8fb8ff';
const DARK: ThemeConfig = {
  algorithm: theme.darkAlgorithm,
  token: {
    colorPrimary: '#1f6feb',
    colorLink: '#6fa8ff',
    colorError: '#ff7875',
    controlOutline: DARK_ACCENT,
    colorTextSecondary: 'rgba(255, 255, 255, 0.7)',
    colorTextTertiary: 'rgba(255, 255, 255, 0.65)',
    colorTextDescription: 'rgba(255, 255, 255, 0.65)',
    red7: '#ff7875',
    green7: '#95de64',
    orange7: '#ffc069',
    volcano7: '#ff9c6e',
    gold7: '#ffd666',
    yellow7: '#fff566',
    blue7: DARK_ACCENT,
    cyan7: '#5cdbd3',
    purple7: '#b37feb',
    magenta7: '#ff85c0',
    geekblue7: '#85a5ff',
    lime7: '#d3f261',
  },
  components: {
    Table: { colorTextDisabled: 'rgba(255, 255, 255, 0.62)' },
    Menu: { itemSelectedColor: DARK_ACCENT, subMenuItemSelectedColor: DARK_ACCENT, darkItemSelectedColor: DARK_ACCENT },
    Tabs: { itemSelectedColor: DARK_ACCENT, itemActiveColor: DARK_ACCENT, itemHoverColor: DARK_ACCENT },
  },
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotion = {
  subscribe(changed: () => void) {
    const query = media(REDUCED_MOTION);
    query?.addEventListener('change', changed);
    return () => query?.removeEventListener('change', changed);
  },
  now: () => media(REDUCED_MOTION)?.matches === true,
};

/**
 * Theme and language in one place: antd's locale, dayjs's locale (DatePicker needs both) and
 * the colour scheme change together.
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [mode, setModeState] = useState<ThemeMode>(storedMode);
  const { i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'el';
  // Before children render, so their dates come out in the new language.
  useMemo(() => dayjs.locale(language), [language]);

  // Someone who asked their system for less motion (vestibular disorders, WCAG 2.3.3) gets
  // drawers, menus and messages that appear at once, and no colour transitions.
  const still = useSyncExternalStore(reducedMotion.subscribe, reducedMotion.now, () => false);
  const themeConfig = useMemo<ThemeConfig>(() => {
    const base = mode === 'dark' ? DARK : LIGHT;
    return still ? { ...base, token: { ...base.token, motion: false } } : base;
  }, [mode, still]);

  const value = useMemo<Preferences>(
    () => ({
      mode,
      setMode(next) {
        setModeState(next);
        try {
          localStorage.setItem(THEME_KEY, next);
        } catch {
          // not persisted
        }
      },
    }),
    [mode],
  );

  return (
    <PreferencesContext.Provider value={value}>
      <ConfigProvider locale={language === 'en' ? en_US : el_GR} theme={themeConfig}>
        {children}
      </ConfigProvider>
    </PreferencesContext.Provider>
  );
}
