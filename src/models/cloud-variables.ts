import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';

/**
 * The variables of the cloud providers (Amazon Bedrock, Google Gemini, Azure OpenAI), read as
 * their own SDKs read them. The AWS ones also reach CloudWatch logs, through the AWS SDK.
 */
export const cloudVariables = z.object({
  AWS_REGION: environmentVariable(z.string().optional(), {
    meaning: 'the AWS region of Bedrock (and of CloudWatch logs)',
    default: '`AWS_DEFAULT_REGION`, else the profile’s `region` in the shared config file',
  }),
  AWS_DEFAULT_REGION: environmentVariable(z.string().optional(), {
    meaning: 'the AWS region when `AWS_REGION` is unset',
  }),
  AWS_PROFILE: environmentVariable(z.string().optional(), {
    meaning:
      'the profile of the shared AWS files that Bedrock’s credentials (and region) come from',
    default: '`default`',
  }),
  AWS_ACCESS_KEY_ID: environmentVariable(z.string().optional(), {
    meaning: 'a static AWS key id; goes with `AWS_SECRET_ACCESS_KEY` (a profile wins over both)',
  }),
  AWS_SECRET_ACCESS_KEY: environmentVariable(z.string().optional(), {
    meaning: 'the secret of `AWS_ACCESS_KEY_ID`',
  }),
  AWS_SESSION_TOKEN: environmentVariable(z.string().optional(), {
    meaning: 'the session token of temporary AWS keys',
  }),
  AWS_BEARER_TOKEN_BEDROCK: environmentVariable(z.string().optional(), {
    meaning: 'a Bedrock API key, used instead of signing requests with AWS keys',
  }),
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: environmentVariable(z.string().optional(), {
    meaning: 'the Bedrock runtime endpoint (a proxy or a local stand-in)',
    default: '`AWS_ENDPOINT_URL`, else the region’s endpoint',
  }),
  AWS_ENDPOINT_URL: environmentVariable(z.string().optional(), {
    meaning: 'the endpoint of every AWS service',
    default: 'each service’s regional endpoint',
  }),
  AWS_SHARED_CREDENTIALS_FILE: environmentVariable(z.string().optional(), {
    meaning: 'the shared AWS credentials file',
    default: '`~/.aws/credentials`',
  }),
  AWS_CONFIG_FILE: environmentVariable(z.string().optional(), {
    meaning: 'the shared AWS config file (profiles and their regions)',
    default: '`~/.aws/config`',
  }),
  AWS_WEB_IDENTITY_TOKEN_FILE: environmentVariable(z.string().optional(), {
    meaning: 'a web identity token file (EKS and the like): Bedrock’s credentials come from it',
  }),
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: environmentVariable(z.string().optional(), {
    meaning: 'the ECS container role’s credentials path: Bedrock’s credentials come from it',
  }),
  AWS_CONTAINER_CREDENTIALS_FULL_URI: environmentVariable(z.string().optional(), {
    meaning: 'a container credentials URL: Bedrock’s credentials come from it',
  }),
  AWS_EC2_METADATA_DISABLED: environmentVariable(z.string().optional(), {
    meaning: '`false` lets Bedrock use the EC2 instance’s role',
    default: 'the instance role is not looked for',
  }),
  HOME: environmentVariable(z.string().optional(), {
    meaning: 'the home folder, where the shared AWS files (`~/.aws`) are looked for',
    default: 'the user’s home folder',
  }),
  GOOGLE_GENERATIVE_AI_API_KEY: environmentVariable(z.string().optional(), {
    meaning: 'Google Gemini’s API key; `google` needs it',
  }),
  GOOGLE_GENERATIVE_AI_BASE_URL: environmentVariable(z.string().optional(), {
    meaning: 'Gemini’s base URL',
    default: '`https://generativelanguage.googleapis.com/v1beta`',
  }),
  AZURE_API_KEY: environmentVariable(z.string().optional(), {
    meaning: 'Azure OpenAI’s key; `azure` needs it',
  }),
  AZURE_RESOURCE_NAME: environmentVariable(z.string().optional(), {
    meaning: 'the Azure OpenAI resource, as in `https://<name>.openai.azure.com`',
  }),
  AZURE_BASE_URL: environmentVariable(z.string().optional(), {
    meaning: 'Azure OpenAI’s base URL, instead of a resource name',
  }),
});

/** The cloud providers' variables as read: trimmed, an empty value unset. */
export type CloudVariables = z.output<typeof cloudVariables>;
