import { defineSelfTest } from './define.js';

defineSelfTest('operator', { index: 2, of: 2 });
