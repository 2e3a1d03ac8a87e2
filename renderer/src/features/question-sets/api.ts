import { queryOptions } from '@tanstack/react-query';
import { call } from '../../transport/transport';

export const setsKeys = {
  all: ['question-sets'] as const,
  list: ['question-sets', 'list'] as const,
  one: (id: string) => ['question-sets', 'one', id] as const,
};

export const setsQuery = () => queryOptions({ queryKey: setsKeys.list, queryFn: () => call('sets.list', {}) });
export const setQuery = (id: string) => queryOptions({ queryKey: setsKeys.one(id), queryFn: () => call('sets.get', { id }) });
