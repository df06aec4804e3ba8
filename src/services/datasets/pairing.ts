import { formatFromName, roleFromName, type DatasetRole } from '../../core/dataset';

/** Which of several files is the training file and which the validation file it is checked against (indexes; -1 when none). */
export function trainValPair(roles: readonly (DatasetRole | undefined)[]): { training: number; validation: number } {
  const training = roles.indexOf('training');
  const validation = roles.indexOf('validation');
  return training === -1 || validation === -1 ? { training, validation: -1 } : { training, validation };
}

/**
 * The other file of a training/validation pair among the names in the file's folder: a `train*` file for a `val*` one and
 * back, the same extension first, then by name; undefined when the file has no such role or no partner lies beside it.
 */
export function partnerName(name: string, role: DatasetRole | undefined, folderNames: readonly string[]): string | undefined {
  if (role !== 'training' && role !== 'validation') return undefined;
  const wanted: DatasetRole = role === 'training' ? 'validation' : 'training';
  const ext = name.slice(name.lastIndexOf('.'));
  return folderNames
    .filter((n) => formatFromName(n) && roleFromName(n) === wanted)
    .sort((a, b) => Number(!a.endsWith(ext)) - Number(!b.endsWith(ext)) || a.localeCompare(b))[0];
}
