import { defineSelfTest } from './define.js';

defineSelfTest('payee');
