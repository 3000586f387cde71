import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setSessionNavigate } from '../providers/http';

/**
 * When the HTTP client ends the session it goes to /login through the router (no page
 * reload), remembering where the user was.
 */
export function SessionNavigator() {
  const navigate = useNavigate();
  useEffect(() => {
    setSessionNavigate((path) => {
      const here = location.pathname + location.search;
      if (location.pathname === path) return;
      navigate(here === '/' ? path : `${path}?redirect=${encodeURIComponent(here)}`, { replace: true });
    });
  }, [navigate]);
  return null;
}
