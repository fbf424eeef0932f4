/** Reads the service configuration from a JSON file (`tokencli serve --config FILE`). */
import { readFile } from 'node:fs/promises';
import { jsonErrorPlace } from '../text/json-error.js';
import type { ServiceConfig } from './config.js';
import { CONFIG_FORMAT_DOC, CONFIG_FORMAT_HINT, ServiceConfigError } from './config-error.js';
import { validateServiceConfig } from './config-validation.js';

/**
 * Reads and validates a configuration file.
 *
 * @throws ServiceConfigError naming the file and, for invalid content, the bad key
 */
export async function loadServiceConfig(path: string): Promise<ServiceConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(code);
    throw new ServiceConfigError(`cannot read config file ${path}: ${why}`, { reason: 'config_unreadable' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // Never V8's message: it quotes the text around the mistake, which may be a client secret.
    const where = jsonErrorPlace(error, text);
    throw new ServiceConfigError(`config file ${path} is not valid JSON${where ? ` (${where})` : ''}`, {
      reason: 'service_config_invalid',
      details: CONFIG_FORMAT_DOC,
      hint: CONFIG_FORMAT_HINT,
    });
  }
  try {
    return validateServiceConfig(json);
  } catch (error) {
    if (error instanceof ServiceConfigError) {
      const { reason, details, hint } = error;
      throw new ServiceConfigError(`${path}: ${error.message}`, { reason, details, hint });
    }
    throw error;
  }
}
