import { describe } from 'vitest';
import { itLoadsEveryModule } from '../_support/module-loads.js';

describe('every module of the validator', () => {
  itLoadsEveryModule('src/validator');
});
