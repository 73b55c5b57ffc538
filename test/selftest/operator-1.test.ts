import { defineSelfTest } from './define.js';

defineSelfTest('operator', { index: 1, of: 2 });
