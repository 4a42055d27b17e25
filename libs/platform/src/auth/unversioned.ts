/** Responses the spec sends without `X-API-Version`: a 401 for a bad bearer token, and a 429. */
const UNVERSIONED = Symbol('fleet:unversioned-response');

export function markUnversioned(request: object): void {
  (request as Record<symbol, boolean>)[UNVERSIONED] = true;
}

export function isUnversioned(request: object): boolean {
  return (request as Record<symbol, boolean>)[UNVERSIONED] === true;
}
