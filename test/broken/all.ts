import { faults as operatorFaults } from './operator/index.js';
import { faults as payeeFaults } from './payee/index.js';
import type { BrokenImplementation, BrokenTarget } from './types.js';
import { faults as walletFaults } from './wallet/index.js';

/** Every deliberately broken implementation, by target. */
export const faultsByTarget: Record<BrokenTarget, BrokenImplementation[]> = {
  payee: payeeFaults,
  wallet: walletFaults,
  operator: operatorFaults,
};

/** Every deliberately broken implementation. */
export const allFaults: BrokenImplementation[] = [...payeeFaults, ...walletFaults, ...operatorFaults];
