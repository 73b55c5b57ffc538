import { defineSelfTest } from './define.js';

defineSelfTest('payee', { index: 1, of: 2 });
