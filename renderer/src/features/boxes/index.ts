/**
 * Boxes: the reviewer's workbench for box answers over images, one image or thousands. What other
 * features may use of it is exported here: the drawing workbench itself, which Review embeds for an
 * item's box questions. The shell opens the screen from BoxesScreen.
 */
export { BoxEditor } from './BoxEditor';
