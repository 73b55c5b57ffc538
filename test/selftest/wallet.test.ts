import { defineSelfTest } from './define.js';

defineSelfTest('wallet');
