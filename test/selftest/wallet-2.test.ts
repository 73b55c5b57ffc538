import { defineSelfTest } from './define.js';

defineSelfTest('wallet', { index: 2, of: 2 });
