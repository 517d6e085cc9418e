package jp.proamconnect.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
