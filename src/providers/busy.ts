/**
 * Whether the app waits on the server (a read or a write in flight), as its query client says;
 * kept apart from the client so the sign-in page can ask without loading it. Work done ahead
 * of need (fetching screens) waits for it.
 */
let probe: () => boolean = () => false;

export const appBusy = () => probe();

/** The app's query client tells how to find out (./query-client, once per mounted app). */
export function setBusyProbe(busy: () => boolean): void {
  probe = busy;
}
