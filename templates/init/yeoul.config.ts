// Yeoul reads this file at start (`npm start` = `yeoul serve`, `npm run dev` reloads it on
// save). Every key is optional; see Yeoul's docs, "Your first agent" and "The config file".
import { defineConfig, defineState, defineTool, END, messages, START, StateGraph } from 'yeoul';
import { z } from 'zod';

/** The number of words in a text. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** A tool the agents may call: the model sees its name, description and input schema. */
export const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words in a text.',
  inputSchema: z.object({ text: z.string().describe('the text whose words to count') }),
  async execute({ text }) {
    return { words: countWords(text) };
  },
});

/** A message of the graph below: what the user said, or what it answers. */
interface Message {
  /** Given by Yeoul when the message is stored. */
  id?: string;
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A small chat graph (it has a `messages` channel): it answers every message with the
 * number of its words. Try it in the web console's graph picker, or with
 * `POST /api/agent/invoke {"message": "…", "options": {"graph": "word-counter"}}`.
 */
export const wordCounter = new StateGraph(defineState({ messages: messages<Message>() }))
  .addNode('count', (state) => {
    const text = state.messages.at(-1)?.content ?? '';
    return {
      messages: { role: 'assistant', content: `That message has ${countWords(text)} words.` },
    };
  })
  .addEdge(START, 'count')
  .addEdge('count', END);

export default defineConfig({
  tools: [wordCount],
  graphs: { 'word-counter': wordCounter },
  // Your own documents only (upload them in the console or with `npx yeoul ingest DIR`), and
  // `query_logs` reads your own logs/ folder: none of Yeoul's samples.
  knowledge: { sampleDocuments: false },
  logs: 'file:./logs',
});
