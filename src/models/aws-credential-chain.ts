import { loadOnce } from '../core/index.ts';
import type { BedrockSettings } from './cloud-settings.ts';

/**
 * The AWS SDK's own credential chain (the one its clients use): environment, SSO, web
 * identity, the shared `credentials` and `config` files (for `AWS_PROFILE`), a
 * `credential_process`, then the container or instance role. Credentials are cached and
 * refreshed before they expire. The SDK is loaded on the first call: a server that never
 * talks to Bedrock never holds it.
 */
export function awsCredentialChain(
  settings: Pick<BedrockSettings, 'profile' | 'credentialsFile' | 'configFile'>,
): () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string }> {
  const loadChain = loadOnce(async () => {
    const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
    return defaultProvider({
      ...(settings.profile ? { profile: settings.profile } : {}),
      ...(settings.credentialsFile ? { filepath: settings.credentialsFile } : {}),
      ...(settings.configFile ? { configFilepath: settings.configFile } : {}),
    });
  });
  const whose = settings.profile ? ` for profile "${settings.profile}"` : '';
  return async () => {
    const chain = await loadChain();
    try {
      const { accessKeyId, secretAccessKey, sessionToken } = await chain();
      return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    } catch (error) {
      const said = error instanceof Error ? error.message : String(error);
      throw new Error(`found no AWS credentials${whose} (${said})`, { cause: error });
    }
  };
}
