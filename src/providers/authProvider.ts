import type { AuthProvider } from '@refinedev/core';
import { http, hostTenant, toApiError } from './http';
import { i18n } from './i18nProvider';
import { session, type SessionUser } from './session';

interface LoginAnswer {
  user: SessionUser;
  token: string;
  exp: number;
}

interface LoginVariables {
  username: string;
  password: string;
  /** The `redirect` search parameter, already checked by safeRedirect. */
  redirectTo?: string;
}

/**
 * Only a same-site path is honoured: one leading '/', not '//' (protocol-relative) nor '/\'
 * (which browsers read as '//'); anything else, and /login itself, falls back to '/'.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || typeof value !== 'string') return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(value)) return '/';
  try {
    const url = new URL(value, 'http://frontis.invalid');
    if (url.origin !== 'http://frontis.invalid') return '/';
    if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

// GET /me is asked once and kept until the session changes.
let me: Promise<SessionUser | null> | null = null;
session.subscribe(() => {
  me = null;
});

function fetchMe(): Promise<SessionUser | null> {
  me ??= http
    .get<{ data: { user: SessionUser } }>('/me')
    .then((answer) => answer.data.data.user ?? null)
    .catch(() => {
      me = null;
      return null;
    });
  return me;
}

export const authProvider: AuthProvider = {
  login: async ({ username, password, redirectTo }: LoginVariables) => {
    try {
      const { data } = await http.post<LoginAnswer>('/login', { username, password, tenant: hostTenant() });
      session.set(data.user, data.token, data.exp);
      me = Promise.resolve(data.user);
      return { success: true, redirectTo: safeRedirect(redirectTo) };
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'bad-credentials') {
        return { success: false, error: { name: i18n.t('login.badCredentials'), message: i18n.t('login.badCredentialsDescription') } };
      }
      if (apiError.code === 'rate-limited') {
        const seconds = Number(apiError.headers['retry-after']) || 60;
        return { success: false, error: { name: i18n.t('login.rateLimited'), message: i18n.t('login.rateLimitedDescription', { seconds }) } };
      }
      return {
        success: false,
        error: { name: i18n.t('login.failed'), message: i18n.t(`errors.${apiError.code}`, { defaultValue: apiError.message }) },
      };
    }
  },

  logout: async () => {
    try {
      await http.post('/sign-out', { data: '' });
    } catch {
      // signed out locally anyway; the server ends the session when its cookies expire
    }
    session.reset();
    return { success: true, redirectTo: '/login' };
  },

  check: async () => {
    if (!session.get()) return { authenticated: false, redirectTo: '/login' };
    const user = await fetchMe();
    if (user) return { authenticated: true };
    return { authenticated: false, logout: true, redirectTo: '/login' };
  },

  getIdentity: async () => (session.get() ? fetchMe() : null),

  getPermissions: async () => session.get()?.role ?? null,

  // The HTTP client already refreshed and retried; log out only when it ended the session.
  onError: async (error: { sessionCleared?: boolean } | undefined) => (error?.sessionCleared ? { logout: true, redirectTo: '/login' } : {}),
};
