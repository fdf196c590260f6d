import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { type Access, accessOf, fullAccess } from '../api/access.ts';
import { api, onUnauthorized } from '../api/api-client.ts';

/** What the signed-in credentials may do, for every component below the console's root. */
export const AccessContext = createContext<Access>(fullAccess);

/** What the signed-in credentials may do (the console hides or disables the rest). */
export function useAccess(): Access {
  return useContext(AccessContext);
}

/**
 * Asks the server who the console's credentials are (`GET /api/me`) whenever they change
 * (`authVersion`), and forgets it when the server refuses them (401). When the server cannot
 * say, everything is offered and the server decides.
 */
export function useCallerAccess(authVersion: number): Access {
  const [access, setAccess] = useState<Access>(fullAccess);
  useEffect(() => onUnauthorized(() => setAccess(fullAccess)), []);
  useEffect(() => {
    let live = true;
    api
      .me()
      .then((me) => live && setAccess(accessOf(me)))
      .catch(() => live && setAccess(fullAccess));
    return () => {
      live = false;
    };
  }, [authVersion]);
  return access;
}
