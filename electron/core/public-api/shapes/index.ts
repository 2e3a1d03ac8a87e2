import type { PublicShape } from '../shape';
import { aiGatewayShape } from './ai-gateway';
import { alphaShape } from './alpha';
import { openAiShape } from './openai';
import { systemOneShape } from './systemone';

/** Every public Decisions shape. Adding one: a file beside this one, and one line here. */
export const SHAPES: readonly PublicShape[] = [alphaShape, openAiShape, systemOneShape, aiGatewayShape];

export { alphaShape } from './alpha';
