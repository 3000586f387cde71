import type { Role } from '../../domain/enums';

/** The signed-in user as the server sends it in `user` (camelCase). */
export interface SessionUser {
  id: string | number;
  username: string;
  role: Role;
  firstName: string;
  lastName: string;
  /** The centre's display name, printed on receipts. */
  tenantName?: string;
}

/** What is kept under localStorage `user`: the user plus the access token's expiry (Unix s). */
interface StoredUser extends SessionUser {
  exp?: number;
}

const DEFAULT_USER: SessionUser = { id: '', username: '', role: 'TEACHER', firstName: '', lastName: '' };

const TOKEN_KEY = 'token';
const USER_KEY = 'user';

/** The part of Storage the session needs; tests pass an in-memory one. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

export interface Session {
  /** The stored user, or null when nobody is signed in. */
  get(): StoredUser | null;
  /** The stored user or the empty default. */
  current(): SessionUser;
  token(): string | null;
  /** The stored access expiry; compared across tabs to see whether someone else refreshed. */
  exp(): number | undefined;
  /** Stores token and user when token is non-null. */
  set(user: SessionUser, token: string | null, exp?: number): void;
  reset(): void;
  subscribe(listener: () => void): () => void;
}

export function createSession(storage: () => KeyValueStore): Session {
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  const get = (): StoredUser | null => {
    const raw = storage().getItem(USER_KEY);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as StoredUser;
      return parsed && typeof parsed === 'object' && typeof parsed.username === 'string' ? parsed : null;
    } catch {
      return null;
    }
  };
  return {
    get,
    current: () => get() ?? DEFAULT_USER,
    token: () => storage().getItem(TOKEN_KEY),
    exp: () => get()?.exp,
    set(user, token, exp) {
      if (token === null) return;
      const record: StoredUser = {
        id: user.id,
        username: user.username,
        role: user.role,
        firstName: user.firstName,
        lastName: user.lastName,
        ...(user.tenantName ? { tenantName: user.tenantName } : {}),
        ...(exp !== undefined ? { exp } : {}),
      };
      storage().setItem(TOKEN_KEY, token);
      storage().setItem(USER_KEY, JSON.stringify(record));
      emit();
    },
    reset() {
      storage().removeItem(TOKEN_KEY);
      storage().removeItem(USER_KEY);
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let fallback: KeyValueStore | null = null;
function browserStorage(): KeyValueStore {
  try {
    if (typeof localStorage !== 'undefined') return localStorage;
  } catch {
    // storage disabled (privacy mode): keep the session in memory for this page
  }
  return (fallback ??= memoryStore());
}

/** The app's session, kept in localStorage. */
export const session = createSession(browserStorage);
