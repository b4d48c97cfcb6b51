import { createExactIndex } from './exact';
import { vectorIndexContract } from './index-contract.testkit';

vectorIndexContract('exact', (dim, initialCapacity) => createExactIndex({ dim, initialCapacity }));
