import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { readonly size?: number };

/** Draws a 16px stroke icon from path data (Lucide-like geometry, drawn for this app). */
function icon(paths: readonly string[], displayName: string) {
  const Icon = ({ size = 16, ...rest }: IconProps) => (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...rest}
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
  Icon.displayName = displayName;
  return Icon;
}

export const HomeIcon = icon(['M3 10.5 12 3l9 7.5', 'M5 9.5V21h14V9.5', 'M10 21v-6h4v6'], 'HomeIcon');
export const HistoryIcon = icon(['M3 12a9 9 0 1 0 3-6.7L3 8', 'M3 3v5h5', 'M12 7v5l3 2'], 'HistoryIcon');
export const FilesIcon = icon(
  ['M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z', 'M14 3v6h6', 'M8 13h8', 'M8 17h5'],
  'FilesIcon',
);
export const CompareIcon = icon(['M8 3v14', 'M4 13l4 4 4-4', 'M16 21V7', 'M12 11l4-4 4 4'], 'CompareIcon');
export const BranchIcon = icon(
  ['M6 3v12', 'M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M18 9a9 9 0 0 1-9 9'],
  'BranchIcon',
);
export const TagIcon = icon(
  ['M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L3 13V3h10l7.6 7.6a2 2 0 0 1 0 2.8z', 'M7.5 7.5h.01'],
  'TagIcon',
);
export const BroomIcon = icon(['M19 3 12 10', 'M10 9l5 5', 'M4 20c2-1 4-4 6-8l4 4c-4 2-7 4-8 6z'], 'BroomIcon');
export const KeyIcon = icon(
  ['M15.5 7.5a3.5 3.5 0 1 1-7 0 3.5 3.5 0 0 1 7 0z', 'M12 11v10', 'M12 17h3', 'M12 14h2'],
  'KeyIcon',
);
export const CubeIcon = icon(['M21 16V8l-9-5-9 5v8l9 5z', 'M3.3 7 12 12l8.7-5', 'M12 22V12'], 'CubeIcon');
export const ActivityIcon = icon(['M22 12h-4l-3 9L9 3l-3 9H2'], 'ActivityIcon');
export const ChartIcon = icon(['M3 3v18h18', 'M7 15v2', 'M11 11v6', 'M15 7v10', 'M19 12v5'], 'ChartIcon');
export const SunIcon = icon(
  [
    'M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10z',
    'M12 1v2',
    'M12 21v2',
    'M4.2 4.2l1.4 1.4',
    'M18.4 18.4l1.4 1.4',
    'M1 12h2',
    'M21 12h2',
    'M4.2 19.8l1.4-1.4',
    'M18.4 5.6l1.4-1.4',
  ],
  'SunIcon',
);
export const MoonIcon = icon(['M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z'], 'MoonIcon');
export const CopyIcon = icon(
  [
    'M20 9h-9a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h9a2 2 0 0 0 2-2v-9a2 2 0 0 0-2-2z',
    'M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1',
  ],
  'CopyIcon',
);
export const CheckIcon = icon(['M20 6 9 17l-5-5'], 'CheckIcon');
export const CloseIcon = icon(['M18 6 6 18', 'M6 6l12 12'], 'CloseIcon');
export const ChevronDownIcon = icon(['M6 9l6 6 6-6'], 'ChevronDownIcon');
export const ChevronRightIcon = icon(['M9 18l6-6-6-6'], 'ChevronRightIcon');
export const SearchIcon = icon(['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'M21 21l-4.3-4.3'], 'SearchIcon');
export const PauseIcon = icon(['M6 4h4v16H6z', 'M14 4h4v16h-4z'], 'PauseIcon');
export const PlayIcon = icon(['M6 3l14 9-14 9z'], 'PlayIcon');
export const GaugeIcon = icon(['M12 14l4-4', 'M3.3 19a10 10 0 1 1 17.4 0'], 'GaugeIcon');
export const UsersIcon = icon(
  [
    'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2',
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
    'M22 21v-2a4 4 0 0 0-3-3.9',
    'M16 3.1a4 4 0 0 1 0 7.8',
  ],
  'UsersIcon',
);
export const PencilIcon = icon(['M17 3l4 4L8 20H4v-4z', 'M14 6l4 4'], 'PencilIcon');
export const PlusIcon = icon(['M12 5v14', 'M5 12h14'], 'PlusIcon');
export const UndoIcon = icon(['M9 14 4 9l5-5', 'M4 9h11a5 5 0 0 1 0 10h-3'], 'UndoIcon');
export const TrashIcon = icon(['M3 6h18', 'M8 6V4h8v2', 'M19 6l-1 14H6L5 6'], 'TrashIcon');
export const LogOutIcon = icon(['M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4', 'M16 17l5-5-5-5', 'M21 12H9'], 'LogOutIcon');
export const KeyboardIcon = icon(
  [
    'M20 5H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2z',
    'M6 9h.01',
    'M10 9h.01',
    'M14 9h.01',
    'M18 9h.01',
    'M7 15h10',
  ],
  'KeyboardIcon',
);
export const AlertIcon = icon(
  ['M12 9v4', 'M12 17h.01', 'M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z'],
  'AlertIcon',
);
export const RestoreIcon = icon(['M3 12a9 9 0 1 0 9-9', 'M3 4v5h5', 'M12 8v4l3 3'], 'RestoreIcon');
export const ShieldIcon = icon(['M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z'], 'ShieldIcon');
export const TerminalIcon = icon(['M4 17l6-6-6-6', 'M12 19h8'], 'TerminalIcon');
