/**
 * Endpoints: the models in the catalog and each model's endpoints (prices, limits, measured
 * figures, health). What other features may use of it is exported here; they import nothing else
 * from this folder. It imports no other feature but settings.
 */
export { detailsQuery, listingQuery, modelsQuery } from './api';
