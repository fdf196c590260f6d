// The graph the LangGraph Agent Server peer serves: Yeoul's react agent (agent ⇄ tools)
// written the LangGraph way — a ChatOpenAI model bound to one calculator tool, a ToolNode,
// and `toolsCondition` routing back to the agent until it answers without tool calls.
// The model is OpenAI-compatible at MODEL_BASE_URL (the bench's scripted model server).
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';

const calculator = tool(
  async ({ expression }) => {
    // The arithmetic of the bench's turn: + - * / and parentheses on decimal numbers.
    if (!/^[\d\s+\-*/().]+$/.test(expression)) return `Error: cannot evaluate "${expression}"`;
    const value = Function(`"use strict"; return (${expression});`)();
    return `${expression} = ${value}`;
  },
  {
    name: 'calculator',
    description: 'Evaluates an arithmetic expression such as "123 * 456".',
    schema: z.object({ expression: z.string().min(1).max(200) }),
  },
);

const model = new ChatOpenAI({
  model: 'scripted',
  apiKey: 'bench',
  configuration: { baseURL: process.env.MODEL_BASE_URL },
  maxRetries: 0,
}).bindTools([calculator]);

const system = {
  role: 'system',
  content: 'You are a helpful assistant. Use the calculator for arithmetic.',
};

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state) => ({
    messages: [await model.invoke([system, ...state.messages])],
  }))
  .addNode('tools', new ToolNode([calculator]))
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent')
  .compile();
