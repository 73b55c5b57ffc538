/**
 * Retired case IDs. A case never changes meaning: when one turns out wrong, its ID is listed here
 * (with why, and the ID of the case that replaces it, if any) and never used again. The generator
 * refuses to drop a case that is not listed here, or to change the input of a case that is.
 */
export interface RetiredCase {
  id: string;
  group: string;
  reason: string;
  replaced_by?: string;
}

export const RETIRED: readonly RetiredCase[] = [
  {
    id: 'renew-pack-mismatch',
    group: 'operator',
    reason:
      'it required 400 INVALID_REQUEST for a renewal entry naming another pack than its cash-pack, where the profile names no code (any code of its table is correct)',
    replaced_by: 'renew-for-another-pack',
  },
];
