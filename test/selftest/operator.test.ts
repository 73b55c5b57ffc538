import { defineSelfTest } from './define.js';

defineSelfTest('operator');
