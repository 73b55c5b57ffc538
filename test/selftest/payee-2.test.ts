import { defineSelfTest } from './define.js';

defineSelfTest('payee', { index: 2, of: 2 });
