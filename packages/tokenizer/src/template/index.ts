// Models' own chat templates: rendering as transformers does, and loss masks derived from them.
export { ChatTemplate, specialTokensOf, type RenderOptions, type RenderedChat, type SpecialTokenMap, type TemplateMessage } from './chat-template.js';
export { assistantSpans, encodeWithChatTemplate, type TemplateEncodeOptions, type TemplateEncoding } from './encode.js';
export { strftime } from './strftime.js';
