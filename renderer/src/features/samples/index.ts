/**
 * Samples: the sample question set and dataset offered on a first start, and their removal. What
 * other features may use of it is exported here. It imports question sets and evaluations (the
 * two lists it fills).
 */
export { RemoveSamples, SampleOffer } from './SampleOffer';
