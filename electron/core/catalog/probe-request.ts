/**
 * What Measure now sends each endpoint: the shortest Decisions request (one yes/no question) to a
 * host that answers Decisions, else a short chat call with a small output cap. One home, read by
 * the measuring operation and by the cost model that says beforehand what measuring will cost.
 */
export const PROBE_STATE = 'The parcel arrived on time.';
export const PROBE_QUESTION = { probe: { type: 'noul', instructions: 'Did the parcel arrive?' } } as const;
export const PROBE_CHAT_TEXT = 'Write a short sentence.';

/** Needs of a small measuring call: a short prompt, a few output tokens (the chat call's cap). */
export const PROBE_NEEDS = { parameters: [], promptTokens: 16, completionTokens: 32, images: 0 };
