import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CloudVariables } from './cloud-variables.ts';

/** Amazon Bedrock settings, read as the AWS SDK reads them. */
export interface BedrockSettings {
  region?: string;
  /** `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`, else `AWS_ENDPOINT_URL`; unset = the region's endpoint. */
  baseUrl?: string;
  /** A Bedrock API key (`AWS_BEARER_TOKEN_BEDROCK`), used instead of signing. */
  apiKey?: string;
  /** Static keys from the environment; absent, the AWS SDK's credential chain finds them. */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Where the credential chain looks: profile name and the shared files' paths. */
  profile?: string;
  credentialsFile?: string;
  configFile?: string;
}

/** Google Gemini (Generative Language API) settings. */
export interface GoogleSettings {
  apiKey?: string;
  /** `GOOGLE_GENERATIVE_AI_BASE_URL`; unset = Google's own endpoint. */
  baseUrl?: string;
}

/** Azure OpenAI settings: the resource (or a base URL) and its key. */
export interface AzureSettings {
  apiKey?: string;
  resourceName?: string;
  baseUrl?: string;
}

/**
 * Bedrock's settings and what is missing: a region (`AWS_REGION`, `AWS_DEFAULT_REGION` or
 * the profile's in the shared config file) and some source of credentials the AWS SDK would use — keys in the environment, a
 * profile or the shared files, a web identity or container role, an API key, or (with
 * `AWS_EC2_METADATA_DISABLED=false`) the instance's role.
 */
export function readBedrockSettings(env: CloudVariables, problems: string[]): BedrockSettings {
  const home = env.HOME ?? homedir();
  const configFile = env.AWS_CONFIG_FILE ?? join(home, '.aws', 'config');
  const settings: BedrockSettings = {
    region:
      env.AWS_REGION ??
      env.AWS_DEFAULT_REGION ??
      profileRegion(configFile, env.AWS_PROFILE ?? 'default'),
    baseUrl: env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME ?? env.AWS_ENDPOINT_URL,
    apiKey: env.AWS_BEARER_TOKEN_BEDROCK,
    accessKeyId: env.AWS_ACCESS_KEY_ID,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    sessionToken: env.AWS_SESSION_TOKEN,
    profile: env.AWS_PROFILE,
    credentialsFile: env.AWS_SHARED_CREDENTIALS_FILE,
    configFile: env.AWS_CONFIG_FILE,
  };
  if (settings.region === undefined) {
    problems.push(
      "YEOUL_MODEL uses bedrock but no AWS region is set: set AWS_REGION (or AWS_DEFAULT_REGION), or a region in the profile's section of ~/.aws/config",
    );
  }
  if ((settings.accessKeyId === undefined) !== (settings.secretAccessKey === undefined)) {
    problems.push(
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither (to use a profile or role)',
    );
  }
  const sharedFiles = [settings.credentialsFile ?? join(home, '.aws', 'credentials'), configFile];
  const hasSource =
    settings.apiKey !== undefined ||
    settings.accessKeyId !== undefined ||
    settings.profile !== undefined ||
    env.AWS_WEB_IDENTITY_TOKEN_FILE !== undefined ||
    env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI !== undefined ||
    env.AWS_CONTAINER_CREDENTIALS_FULL_URI !== undefined ||
    env.AWS_EC2_METADATA_DISABLED?.toLowerCase() === 'false' ||
    sharedFiles.some((file) => existsSync(file));
  if (!hasSource) {
    problems.push(
      'YEOUL_MODEL uses bedrock but no AWS credentials were found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys), or AWS_PROFILE with ~/.aws/credentials or ~/.aws/config, or AWS_BEARER_TOKEN_BEDROCK; on EC2 with an instance role set AWS_EC2_METADATA_DISABLED=false',
    );
  }
  return settings;
}

/**
 * The `region` of a profile in the shared config file (`[default]`, `[profile NAME]`), as the
 * AWS SDK finds it when no variable names one; undefined when the file or key is absent.
 */
function profileRegion(configFile: string, profile: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch {
    return undefined;
  }
  const wanted = profile === 'default' ? ['default', 'profile default'] : [`profile ${profile}`];
  let inSection = false;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*([^\]]+?)\s*\]/.exec(line);
    if (section) inSection = wanted.includes(section[1] as string);
    const setting = /^\s*region\s*=\s*(\S+)/.exec(line);
    if (inSection && setting) return setting[1];
  }
  return undefined;
}

/** Gemini's settings; the key is required. */
export function readGoogleSettings(env: CloudVariables, problems: string[]): GoogleSettings {
  const apiKey = env.GOOGLE_GENERATIVE_AI_API_KEY;
  if (apiKey === undefined)
    problems.push('YEOUL_MODEL uses google but GOOGLE_GENERATIVE_AI_API_KEY is not set');
  return { apiKey, baseUrl: env.GOOGLE_GENERATIVE_AI_BASE_URL };
}

/** Azure OpenAI's settings; the key and a resource name or base URL are required. */
export function readAzureSettings(env: CloudVariables, problems: string[]): AzureSettings {
  const settings: AzureSettings = {
    apiKey: env.AZURE_API_KEY,
    resourceName: env.AZURE_RESOURCE_NAME,
    baseUrl: env.AZURE_BASE_URL,
  };
  if (settings.apiKey === undefined)
    problems.push('YEOUL_MODEL uses azure but AZURE_API_KEY is not set');
  if (settings.resourceName === undefined && settings.baseUrl === undefined) {
    problems.push(
      'YEOUL_MODEL uses azure but neither AZURE_RESOURCE_NAME (the resource in https://<name>.openai.azure.com) nor AZURE_BASE_URL is set',
    );
  }
  if (
    settings.resourceName !== undefined &&
    !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(settings.resourceName)
  ) {
    problems.push(
      `AZURE_RESOURCE_NAME must be one DNS label (letters, digits, hyphens), not "${settings.resourceName}"; use AZURE_BASE_URL for another endpoint`,
    );
  }
  return settings;
}
