import { ConfigProvider, theme } from 'antd';
import el_GR from 'antd/es/locale/el_GR';
import en_US from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/el';
import 'dayjs/locale/en';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type ThemeMode = 'light' | 'dark';
const THEME_KEY = 'frontis.theme';

interface Preferences {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
}

const PreferencesContext = createContext<Preferences>({ mode: 'light', setMode: () => undefined });
export const usePreferences = () => useContext(PreferencesContext);

function storedMode(): ThemeMode {
  try {
    const value = localStorage.getItem(THEME_KEY);
    if (value === 'dark' || value === 'light') return value;
  } catch {
    // no storage
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

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
      <ConfigProvider
        locale={language === 'en' ? en_US : el_GR}
        theme={{ algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: '#1f6feb' } }}
      >
        {children}
      </ConfigProvider>
    </PreferencesContext.Provider>
  );
}
