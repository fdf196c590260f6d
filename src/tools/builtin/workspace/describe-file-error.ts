/**
 * A file-system failure in words a model can act on, naming the workspace-relative path and
 * never the host's absolute one.
 */
export function describeFileError(error: unknown, action: string, display: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `cannot ${action} "${display}": it does not exist; use list_files to see what is there`;
    case 'EACCES':
    case 'EPERM':
      return `cannot ${action} "${display}": permission denied`;
    case 'EISDIR':
      return `cannot ${action} "${display}": it is a folder`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `cannot ${action} "${display}": a part of the path is a file, not a folder`;
    case 'ELOOP':
      return `cannot ${action} "${display}": it is a symbolic link that changed while in use`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `cannot ${action} "${display}": the disk is full`;
    case 'ENAMETOOLONG':
      return `cannot ${action} "${display}": the name is too long`;
    default:
      return `cannot ${action} "${display}"${code ? ` (${code})` : ''}`;
  }
}
