import { defineSelfTest } from './define.js';

defineSelfTest('wallet', { index: 1, of: 2 });
