import { LabIcon } from '@jupyterlab/ui-components';

import athenaSvg from '../style/icons/athena.svg';

/** The owl-eye mark of athena: sidebar tab, preview tabs, palette. */
export const athenaIcon = new LabIcon({ name: 'athena-lab:athena', svgstr: athenaSvg });
