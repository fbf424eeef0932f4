/** Types of scripts/release/platform.mjs, for the tests. */
export declare const RELEASE_PLATFORMS: ReadonlyArray<{
  platform: 'linux' | 'darwin' | 'win32';
  arch: 'x64' | 'arm64';
  bestEffort: boolean;
}>;
export declare function releasePlatform(platform?: string, arch?: string): string;
export declare function archiveName(version: string, platform?: string, arch?: string): string;
