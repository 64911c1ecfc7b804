/** A route's numeric id, or null when the address holds no positive integer (the API would be asked about NaN). */
export function routeId(param: string | undefined): number | null {
  return param !== undefined && /^[1-9]\d{0,14}$/.test(param) ? Number(param) : null;
}
