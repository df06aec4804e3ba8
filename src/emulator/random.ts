// The emulator's seeded rollouts and the signal check's row sampling share one generator, defined in core.
export { hashSeed, Random } from '../core/random';
