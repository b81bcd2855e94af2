import * as vscode from 'vscode';
import { connectionFailureText, diagnoseConnectionError, type ConnectionDiagnosis } from '../../core/net/diagnose';
import { formatCredits } from '../../core/account/creditsFormat';
import type { Log } from '../log';
import { diagnosisContext, type GatewayConnection } from './gatewayConnection';
import { abortOnCancel } from '../lifecycle';
import { openSetting } from '../config';
import { SETTINGS_SECTION } from '../../shared/settings';
import { setContextKey, WALKTHROUGH_KEYS } from '../contextKeys';

export interface ConnectionReport {
  readonly ok: boolean;
  readonly baseUrl: string;
  readonly modelCount?: number;
  readonly credits?: number;
  readonly diagnosis?: ConnectionDiagnosis;
  /** Why the connection is not set up as the settings ask (e.g. an unreadable CA file), even when the test passed. */
  readonly setupProblem?: string;
}

const TIMEOUT_MS = 20_000;

/** The buttons offered with each kind of failure: the one next step first, then the log. */
function actionsFor(diagnosis: ConnectionDiagnosis): [string, () => Thenable<unknown>][] {
  const setKey: [string, () => Thenable<unknown>] = [
    vscode.l10n.t('Set API Key'),
    () => vscode.commands.executeCommand('unifiedInference.setApiKey'),
  ];
  const setAddress: [string, () => Thenable<unknown>] = [
    vscode.l10n.t('Set Gateway Address'),
    () => vscode.commands.executeCommand('unifiedInference.setBaseUrl'),
  ];
  // The setting the next step names: VS Code's proxy settings, or our CA certificate file.
  const setting = diagnosis.setting;
  const namedSetting: [string, () => Thenable<unknown>] | undefined =
    setting === undefined
      ? undefined
      : [
          setting.startsWith('http.') ? vscode.l10n.t('Open Proxy Settings') : vscode.l10n.t('Open Settings'),
          () => openSetting(setting),
        ];
  switch (diagnosis.kind) {
    case 'noKey':
    case 'unauthorized':
      return [setKey];
    case 'dns':
    case 'refused':
    case 'notFound':
    case 'invalidUrl':
      return [setAddress];
    case 'proxy':
    case 'tls':
      // The address named: set it the guided way; another setting: open it; none (an expired certificate): no button.
      if (setting === `${SETTINGS_SECTION}.baseUrl`) return [setAddress];
      return namedSetting ? [namedSetting] : [];
    default:
      return [];
  }
}

function failure(baseUrl: string, diagnosis: ConnectionDiagnosis): ConnectionReport {
  return { ok: false, baseUrl, diagnosis };
}

/**
 * "Test Connection": reads the catalog and the balance, and reports either what works (model
 * count, balance) or what is wrong with one concrete next step. Returns the report (tests read it).
 */
export async function testConnectionCommand(connection: GatewayConnection, log: Log): Promise<ConnectionReport> {
  const setup = connection.setup;
  const openSettings = vscode.l10n.t('Open Settings');
  const openChat = vscode.l10n.t('Open Chat');
  const showLog = vscode.l10n.t('Show Log');
  let report: ConnectionReport;
  if (!setup.baseUrl || !setup.client) {
    report = failure('', {
      kind: 'invalidUrl',
      title: vscode.l10n.t('No gateway address'),
      detail: vscode.l10n.t('The setting {0} is empty.', 'unifiedInference.baseUrl'),
      nextStep: vscode.l10n.t('Set the gateway address.'),
    });
  } else if (!setup.hasKey) {
    report = failure(setup.baseUrl, {
      kind: 'noKey',
      title: vscode.l10n.t('No API key'),
      detail: vscode.l10n.t('No key is stored and {0} is not set.', 'UNIFIED_INFERENCE_API_KEY'),
      nextStep: vscode.l10n.t('Set your API key.'),
    });
  } else {
    const client = setup.client;
    report = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Unified Inference: testing {0}', setup.baseUrl),
        cancellable: true,
      },
      async (progress, token): Promise<ConnectionReport> => {
        const controller = new AbortController();
        const cancel = abortOnCancel(controller, token);
        try {
          progress.report({ message: vscode.l10n.t('reading the model catalog...') });
          const models = await client.models.list({ signal: controller.signal, timeoutMs: TIMEOUT_MS });
          progress.report({ message: vscode.l10n.t('reading the balance...') });
          const quota = await client.quota.get({ signal: controller.signal, timeoutMs: TIMEOUT_MS });
          return { ok: true, baseUrl: setup.baseUrl, modelCount: models.length, credits: quota.credits };
        } catch (error) {
          return failure(setup.baseUrl, diagnoseConnectionError(error, diagnosisContext(setup)));
        } finally {
          cancel.dispose();
        }
      },
    );
  }

  if (setup.problem) report = { ...report, setupProblem: setup.problem };
  connection.reportTest({
    ok: report.ok,
    at: Date.now(),
    ...(report.modelCount !== undefined ? { modelCount: report.modelCount } : {}),
    ...(report.diagnosis ? { problem: report.diagnosis.title } : {}),
  });
  const setupNote = report.setupProblem ? ` ${vscode.l10n.t('Note: {0}', report.setupProblem)}` : '';
  if (report.ok) {
    const balance = formatCredits(report.credits ?? 0);
    const message = setup.proxy
      ? vscode.l10n.t(
          'Connected to {0} through {1}: {2} models, balance {3}.',
          report.baseUrl,
          setup.proxy,
          report.modelCount ?? 0,
          balance,
        )
      : vscode.l10n.t('Connected to {0}: {1} models, balance {2}.', report.baseUrl, report.modelCount ?? 0, balance);
    log.info(`Test connection: ${message}${setupNote}`);
    setContextKey(WALKTHROUGH_KEYS.connectionTested, true);
    if (report.setupProblem) {
      // Connected, but not as configured: say so where the user looks, with the setting to fix.
      void vscode.window
        .showWarningMessage(vscode.l10n.t('Unified Inference: {0}', message + setupNote), openSettings, openChat)
        .then((choice) => {
          if (choice === openSettings)
            void vscode.commands.executeCommand(
              'workbench.action.openSettings',
              setup.caCertificateUnreadable ? 'unifiedInference.caCertificateFile' : 'unifiedInference.baseUrl',
            );
          else if (choice === openChat) void vscode.commands.executeCommand('unifiedInference.chat.focus');
        });
    } else {
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Unified Inference: {0}', message), openChat)
        .then((choice) => choice && vscode.commands.executeCommand('unifiedInference.chat.focus'));
    }
    void vscode.commands.executeCommand('unifiedInference.refreshCredits'); // the status bar follows at once
  } else if (report.diagnosis) {
    const { kind } = report.diagnosis;
    const text = connectionFailureText(report.diagnosis);
    log.warn(`Test connection failed (${kind}): ${text}${setupNote}`);
    const actions = actionsFor(report.diagnosis);
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('Unified Inference: {0}', text + setupNote),
        ...actions.map(([label]) => label),
        showLog,
      )
      .then((choice) => {
        if (choice === showLog) log.show();
        else actions.find(([label]) => label === choice)?.[1]();
      });
  }
  return report;
}
