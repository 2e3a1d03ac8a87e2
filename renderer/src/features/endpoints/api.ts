import { queryOptions } from '@tanstack/react-query';
import { call } from '../../transport/transport';

export const endpointsKeys = {
  models: ['endpoints', 'models'] as const,
  model: (id: string) => ['endpoints', 'model', id] as const,
};

export const modelsQuery = () => queryOptions({ queryKey: endpointsKeys.models, queryFn: () => call('models.list', {}) });
